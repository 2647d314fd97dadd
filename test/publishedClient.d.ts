// The service's published JS client is plain JavaScript without types: its test reads it untyped.
declare module '@blueink360/blueink-client-js';
