/** The construct tests of test/constructs/sso.test.ts, run against the cdktn build (`orgadmin/cdktn`). */
import { runConstructTestsOnCdktn } from './helpers/cdktn-build';

runConstructTestsOnCdktn('sso');
