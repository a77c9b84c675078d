/**
 * A server that cannot listen says which command-line flag picks another port, instead of Node's
 * `listen EADDRINUSE: address already in use 127.0.0.1:8787`.
 */
export async function withPortFlag<T>(listening: Promise<T>, flag: string, port: number | string): Promise<T> {
  try {
    return await listening;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'EADDRINUSE') {
      throw new Error(`Port ${port} is already in use by another program. Stop it, or choose another port with ${flag} <port> (${flag} 0 picks a free one).`, { cause: error });
    }
    if (code === 'EACCES') {
      throw new Error(`Port ${port} needs privileges this process does not have. Choose another port with ${flag} <port>.`, { cause: error });
    }
    throw error;
  }
}
