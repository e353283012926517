/**
 * The one module through which the hand-written constructs use their CDK toolkit.
 *
 * The constructs are written once and shipped for two toolkits with the same API: CDK for
 * Terraform (`cdktf`, `orgadmin/constructs`) and CDK Terrain (`cdktn`, `orgadmin/cdktn`). A
 * toolkit's classes only work inside that toolkit's stacks (a cdktf resource in a cdktn stack
 * fails at synth), so nothing here may be mixed: this source names `cdktf`, and the build
 * (scripts/build-cdktn.mjs) writes `dist/cdktn/` from the same compiled constructs with only this
 * module pointed at `cdktn` and the bindings generated for cdktn under `gen/`. Every other
 * construct file imports toolkit classes from here and bindings from `./gen`, never from a toolkit
 * package directly.
 */
export { TerraformStack, Token, type ISynthesisSession, type ITerraformDependable, type TerraformProvider } from 'cdktf';
/**
 * The toolkit's hook for writing files into a stack's output directory at synth, the one its own
 * `TerraformAsset` uses; the toolkit exports it from this module only.
 */
export { addCustomSynthesis } from 'cdktf/lib/synthesize/synthesizer';
