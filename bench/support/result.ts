export function report(figures: Record<string, number>): void {
  console.log('BENCH_RESULT ' + JSON.stringify(figures));
}
