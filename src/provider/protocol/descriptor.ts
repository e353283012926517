/**
 * The protocol's message and service descriptor, compiled from `proto/*.proto` at build time
 * (`npm run build:provider -- --descriptor`) so that start-up parses no `.proto` text. A test
 * fails when `proto/descriptor.json` no longer matches the `.proto` files.
 */
import type { DescriptorNode } from './protobuf';
import descriptor from './proto/descriptor.json';

/** The `.proto` files the descriptor is compiled from, relative to `proto/`. */
export const PROTO_FILES: readonly string[] = ['tfplugin6.proto', 'go_plugin.proto', 'health.proto'];

/** The descriptor, in protobufjs JSON form (`Root#toJSON()` with `keepCase`). */
export const PROTOCOL_DESCRIPTOR: DescriptorNode = descriptor as DescriptorNode;
