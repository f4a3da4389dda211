// class-transformer keeps its decorators' metadata in this module and ships no declaration beside
// it (its types/ folder declares it as `class-transformer/types/storage`).
declare module 'class-transformer/cjs/storage.js' {
  export const defaultMetadataStorage: import('class-transformer/types/MetadataStorage.js').MetadataStorage;
}
