/** Function signatures and call results in their protobuf form. */
import { typeToJsonBytes } from '../../protocol/terraform-type';
import type * as tfplugin6 from '../../protocol/tfplugin6';
import type { FunctionParameter } from '../function';
import type { CallFunctionResponse, FunctionSignature, GetFunctionsResponse } from '../provider-server';
import { diagnostics } from './diagnostics';

/** Descriptions are Markdown per the function contract. */
const DESCRIPTION_KIND = 'MARKDOWN';

function parameter(parameter: FunctionParameter): tfplugin6.Function_Parameter {
  return {
    name: parameter.name,
    type: typeToJsonBytes(parameter.type),
    allow_null_value: parameter.allowNull === true,
    allow_unknown_values: parameter.allowUnknown === true,
    description: parameter.description,
    description_kind: DESCRIPTION_KIND,
  };
}

/** `tfplugin6.Function` of a signature. */
export function functionSignature(signature: FunctionSignature): tfplugin6.Function {
  return {
    parameters: signature.parameters.map(parameter),
    variadic_parameter: signature.variadicParameter ? parameter(signature.variadicParameter) : undefined,
    return: { type: typeToJsonBytes(signature.returnType) },
    summary: signature.summary,
    description: signature.description,
    description_kind: DESCRIPTION_KIND,
    deprecation_message: signature.deprecationMessage ?? '',
  };
}

/** The `functions` map of GetProviderSchema and GetFunctions. */
export function functionSignatures(signatures: { readonly [name: string]: FunctionSignature }): { [name: string]: tfplugin6.Function } {
  return Object.fromEntries(Object.entries(signatures).map(([name, signature]) => [name, functionSignature(signature)]));
}

/** `tfplugin6.GetFunctions.Response`. */
export function getFunctionsResponse(response: GetFunctionsResponse): tfplugin6.GetFunctions_Response {
  return { functions: functionSignatures(response.functions), diagnostics: diagnostics(response.diagnostics) };
}

/** `tfplugin6.CallFunction.Response`. */
export function callFunctionResponse(response: CallFunctionResponse): tfplugin6.CallFunction_Response {
  if (response.error) {
    return { error: { text: response.error.text, ...(response.error.argument !== undefined ? { function_argument: response.error.argument } : {}) } };
  }
  return { result: response.result };
}
