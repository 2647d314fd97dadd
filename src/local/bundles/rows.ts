// Typed decoders of the JSON columns of the bundles and packets tables (their row types and the
// API mapping are in read.ts): one place that says what a stored `attrs` or `errors` holds.
import type { WireError } from '../../service/errors.js';
import type { BundleAttrs, BundleRow, PacketAttrs, PacketRow } from './read.js';

export const bundleAttrs = (b: Pick<BundleRow, 'attrs'>): BundleAttrs => JSON.parse(b.attrs) as BundleAttrs;
export const packetAttrs = (p: Pick<PacketRow, 'attrs'>): PacketAttrs => JSON.parse(p.attrs) as PacketAttrs;
/** The errors a failed Bundle shows (`[]` when none). */
export const bundleErrors = (b: Pick<BundleRow, 'errors'>): WireError[] => JSON.parse(b.errors) as WireError[];
