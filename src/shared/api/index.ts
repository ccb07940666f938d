/** The Work Management Service 2.0 wire format: one module per resource group. */
export * from './common';
export * from './attachments';
export * from './custom-fields';
export * from './org';
export * from './tasks';
export * from './messages';
export * from './projects';
export * from './members';
export * from './documents';
export * from './history';
export * from './crm';
export * from './dependencies';
export * from './events';
export * from './time-reports';
