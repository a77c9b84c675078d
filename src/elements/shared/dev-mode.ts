/**
 * True in the source and in the development build of the package; its production modules are built
 * with `DEV` false, so minifiers drop everything that only helps a page author find mistakes.
 */
export const DEV: boolean = true;
