declare module 'wink-sentiment' {
  /** wink-sentiment 5: AFINN-165 and emoji scores with negation; normalizedScore is -5..5. */
  function sentiment(phrase: string): { score: number; normalizedScore: number };
  export = sentiment;
}
