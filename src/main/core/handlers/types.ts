import type { ChannelArg, ChannelName, ChannelOutput } from '../../../shared/ipc/contract';

export type Handler<C extends ChannelName> = (
  arg: ChannelArg<C>,
) => Promise<ChannelOutput<C>> | ChannelOutput<C>;

/** A handler map of one IPC domain: a subset of the contract's channels. */
export type HandlerMap<C extends ChannelName = ChannelName> = { [K in C]: Handler<K> };
