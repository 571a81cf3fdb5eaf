declare function cjsRequire<T = unknown>(id: string): T;
export = cjsRequire;
