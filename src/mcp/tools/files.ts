// A Bundle's files in answers: each with its index (the resource URI esign://bundles/SLUG/files/N
// reads its bytes), kind, name and SHA-256, and as a resource link. Names come from outside: they
// stay in the data; a link is named by the program.
import type { ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { FileObject } from '../../service/types.js';

export const FileEntry = z.object({
  index: z.int(),
  kind: z.string(),
  name: z.string(),
  sha256: z.string().nullable(),
  size: z.int().nullable(),
  uri: z.string(),
});
export type FileEntryT = z.infer<typeof FileEntry>;

const fileUri = (slug: string, index: number) => `esign://bundles/${slug}/files/${index}`;

export const fileEntries = (slug: string, files: readonly FileObject[]): FileEntryT[] =>
  files.map((f, index) => ({
    index,
    kind: f.kind ?? 'document',
    name: f.name ?? '',
    sha256: f.sha256 ?? null,
    size: f.size ?? null,
    uri: fileUri(slug, index),
  }));

export const fileLinks = (slug: string, files: readonly FileEntryT[]): ResourceLink[] =>
  files.map((f) => ({
    type: 'resource_link',
    uri: f.uri,
    name: `${slug}-${f.kind}-${f.index}`,
    mimeType: 'application/pdf',
    ...(f.size !== null ? { size: f.size } : {}),
  }));
