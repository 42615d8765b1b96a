declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The test environment's own address (`BETA_PORT`, the spec's `{beta_base_url}`): only sandbox
     * twins' keys are accepted; a production platform's key is 401 (README, "Test environment").
     */
    sandboxOnly: boolean;
  }
}

/** The 401 a production platform's key gets at the test environment's address. */
export const SANDBOX_ONLY = "this address serves sandbox platforms only: use the sandbox twin's key here, or this key at the platform's own address";
