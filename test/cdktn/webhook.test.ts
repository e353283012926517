/** The construct tests of test/constructs/webhook.test.ts, run against the cdktn build (`orgadmin/cdktn`). */
import { runConstructTestsOnCdktn } from './helpers/cdktn-build';

runConstructTestsOnCdktn('webhook');
