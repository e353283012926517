/**
 * Setup file of jest's `e2e-hosted` project (jest.config.js): the end-to-end fixture starts the
 * service in hosted-service compatibility mode.
 */
process.env.ORGADMIN_TEST_COMPAT = 'hosted';
