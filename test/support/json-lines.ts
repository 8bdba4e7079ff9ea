/** Reads a streamed body of one JSON document per line (a watch), handing on each as it arrives. */
export async function forEachJsonLine<T>(body: AsyncIterable<Uint8Array>, handle: (document: T) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
      handle(JSON.parse(buffered.slice(0, newline)) as T);
      buffered = buffered.slice(newline + 1);
    }
  }
}
