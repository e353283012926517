/**
 * Request validation with TypeBox's compiler instead of fastify's default ajv setup. Why: ajv in
 * fastify coerces types everywhere, which would turn `{"name": 5}` into `"5"`; the wire contract wants a
 * 400 for known fields of the wrong type. Query strings and path parameters are text on the wire,
 * so only they are converted, strictly (`"10"` → 10, `"true"` → true; `"1.5"` stays text and fails
 * an integer check), before the check.
 */
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

/** How text becomes each type it is converted to; text that does not fit stays text (and fails the check). */
const TEXT_CONVERSIONS: Readonly<Record<string, (text: string) => unknown>> = {
  integer: (text) => (/^[+-]?\d{1,15}$/.test(text) ? Number(text) : text),
  number: (text) => (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : text),
  boolean: (text) => (text === 'true' ? true : text === 'false' ? false : text),
};

/** The conversion of text to what a (top-level) schema asks for, if there is one. */
function conversionFor(schema: TSchema | undefined): ((text: string) => unknown) | undefined {
  return schema && Object.hasOwn(TEXT_CONVERSIONS, String(schema.type)) ? TEXT_CONVERSIONS[String(schema.type)] : undefined;
}

/** Converts one text value to what its (top-level) schema asks for, or leaves it as text. */
function convertText(schema: TSchema | undefined, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const convert = conversionFor(schema);
  return convert ? convert(value) : value;
}

/** Converts the text properties of a query or params object. */
function convertTextObject(schema: TSchema, data: unknown): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const properties = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) out[key] = convertText(properties[key], value);
  return out;
}

/** Whether any top-level property of `schema` is of a type text is converted to. */
function convertsText(schema: TSchema): boolean {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  return Object.values(properties).some((property) => conversionFor(property) !== undefined);
}

/** fastify validator compiler backed by TypeBox; errors name the field and what was expected. */
export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const checker = TypeCompiler.Compile(schema);
  // Path parameters of text only (most routes) need no copy: conversion would leave every value as it is.
  const convert = httpPart !== 'body' && convertsText(schema);
  return (data: unknown) => {
    const value = convert ? convertTextObject(schema, data) : data;
    if (checker.Check(value)) return { value };
    const first = checker.Errors(value).First();
    const field = first?.path ? first.path.replace(/^\//, '').replace(/\//g, '.') : '';
    const message = first ? first.message : 'Invalid value';
    return { error: new Error(field ? `${field}: ${message}` : message) };
  };
};
