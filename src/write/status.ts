// Write rules shared by events, venues and organizers (here, not in either, so neither imports the other's writes).

/** TEC's status scaling: publishers get what they ask (default publish); others get pending or draft. */
export function scaleStatus(requested: string | undefined, canPublish: boolean): string {
  if (canPublish) return requested ?? 'publish';
  if (requested === 'publish' || requested === 'future') return 'pending';
  if (requested === 'private') return 'pending';
  return requested ?? 'draft';
}
