/** `it` for the assumptions of one workaround: a failure says which assumption broke and where it is relied on. */
export function contractsOf(workaround: string) {
  return (assumption: string, check: () => unknown) =>
    it(assumption, async () => {
      try {
        await check();
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new Error(
          `Framework contract broken: "${assumption}" no longer holds.\n${workaround} relies on it and must be revisited.\n\n${detail}`,
          {
            cause: error,
          },
        );
      }
    });
}
