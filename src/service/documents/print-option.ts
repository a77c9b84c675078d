/** Which print of an invoice a PDF is: the original, or a copy marked as such. */
export type PrintOption = 'original' | 'copy';
