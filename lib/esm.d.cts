declare function esmImport<T = unknown>(specifier: string): Promise<T>;
export = esmImport;
