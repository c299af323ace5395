/** The tarball of the package as it is now and the paths it holds: packed once per content. */
export declare function packOnce(): { tarball: string; files: string[] };
