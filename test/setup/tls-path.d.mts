/** Where the unit run's certificate will be (NODE_EXTRA_CA_CERTS), made once a process. */
export function runCertificatePath(): string;
