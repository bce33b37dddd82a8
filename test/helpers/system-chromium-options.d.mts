export declare const SYSTEM_CHROMIUM: { executablePath: string; args: string[] };
