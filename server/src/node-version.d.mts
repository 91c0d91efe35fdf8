/** Types of node-version.mjs (plain JavaScript so that it loads on any Node.js). */
export declare const SUPPORTED_NODE_LINES: readonly number[];
export declare function isSupportedNode(version: string): boolean;
export declare function unsupportedNodeMessage(version: string, execPath?: string): string;
export declare function exitUnlessSupportedNode(): void;
