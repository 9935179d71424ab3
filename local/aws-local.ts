/** Credentials and region for talking to the local servers (they accept any credentials). */
export const localRegion = 'us-east-1';
export const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
export const localAccountId = '000000000000';
