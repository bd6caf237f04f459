// The plist package (the one electron-builder uses to write Info.plist) ships no types.
declare module 'plist' {
  const plist: { parse(xml: string): unknown; build(value: unknown): string };
  export default plist;
}
