#!/usr/bin/env node
/**
 * Builds the Java SDK (java/) with the JDK's own tools, no Maven or Gradle: Maven Central is not
 * reachable from CI, and the library needs nothing beyond the JDK.
 *
 * Usage:
 *   node scripts/build-java.mjs            compile java/src/main into java/build/orgadmin-client.jar
 *   node scripts/build-java.mjs --tests    also compile java/src/test into java/build/test-classes,
 *                                          against Debian's JUnit 5 jars (package junit5) in
 *                                          $JUNIT_JARS (default /usr/share/java)
 *
 * Without `javac` on PATH it prints one line and exits 0, so `npm run build` works on machines
 * without a JDK (the Java SDK is then simply not built).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const javaDir = join(root, 'java');
const build = join(javaDir, 'build');
/** The SDK's own version (its Maven coordinate is dev.orgadmin:orgadmin-client:VERSION). */
export const JAVA_SDK_VERSION = '0.1.0';
/** Jars the tests compile against, from Debian's junit5 package (and its dependencies). */
export const JUNIT_COMPILE_JARS = ['junit-jupiter-api.jar', 'junit-platform-commons.jar', 'opentest4j.jar', 'apiguardian-api.jar'];
/** The JUnit Platform console launcher (its manifest pulls in the Jupiter engine). */
export const JUNIT_CONSOLE_JAR = 'junit-platform-console-standalone.jar';

/** True when a JDK compiler is on PATH. */
export function hasJdk() {
  return spawnSync('javac', ['-version'], { stdio: 'ignore' }).status === 0;
}

/** Where Debian's JUnit jars are. */
export function junitJarsDir() {
  return process.env.JUNIT_JARS ?? '/usr/share/java';
}

/** Every `.java` file under `dir`. */
function javaFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...javaFiles(path));
    else if (name.endsWith('.java')) out.push(path);
  }
  return out.sort();
}

function run(command, args) {
  execFileSync(command, args, { cwd: javaDir, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Compiles the library and packs the jar. */
function buildLibrary() {
  const classes = join(build, 'classes');
  rmSync(classes, { recursive: true, force: true });
  mkdirSync(classes, { recursive: true });
  run('javac', ['--release', '17', '-Xlint:all', '-Werror', '-encoding', 'UTF-8', '-d', classes, ...javaFiles(join(javaDir, 'src/main/java'))]);
  const manifest = join(build, 'MANIFEST.MF');
  writeFileSync(
    manifest,
    [
      'Implementation-Title: orgadmin-client',
      `Implementation-Version: ${JAVA_SDK_VERSION}`,
      'Implementation-Vendor-Id: dev.orgadmin',
      'Automatic-Module-Name: dev.orgadmin.client',
      '',
    ].join('\n'),
  );
  const jar = join(build, 'orgadmin-client.jar');
  rmSync(jar, { force: true });
  run('jar', ['--create', '--file', jar, '--manifest', manifest, '-C', classes, '.']);
  return jar;
}

/** Compiles the tests against the jar and the JUnit jars. */
function buildTests(jar) {
  const jars = JUNIT_COMPILE_JARS.map((name) => join(junitJarsDir(), name));
  const missing = jars.filter((path) => !existsSync(path));
  if (missing.length > 0) {
    throw new Error(`JUnit 5 jars not found (${missing.join(', ')}): install Debian's junit5 package or set JUNIT_JARS`);
  }
  const testClasses = join(build, 'test-classes');
  rmSync(testClasses, { recursive: true, force: true });
  mkdirSync(testClasses, { recursive: true });
  run('javac', [
    '--release', '17', '-Xlint:all', '-encoding', 'UTF-8', '-d', testClasses,
    '-cp', [jar, ...jars].join(':'),
    ...javaFiles(join(javaDir, 'src/test/java')),
  ]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  if (!hasJdk()) {
    console.log('java: javac is not on PATH; skipped building the Java SDK (install a JDK 17 to build java/build/orgadmin-client.jar)');
    process.exit(0);
  }
  try {
    const jar = buildLibrary();
    if (process.argv.includes('--tests')) buildTests(jar);
    console.log(`java: built ${jar.slice(root.length + 1)}${process.argv.includes('--tests') ? ' and the tests' : ''}`);
  } catch (error) {
    console.error(`java: build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
