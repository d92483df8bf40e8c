// How a local dismissal's reason reads, wherever a dismissed finding is shown (the tree,
// the hover, the details page, the dismiss question).
import type { DismissReason } from './types';

export const DISMISS_LABELS: Record<DismissReason, string> = {
  'false-positive': 'false positive',
  'accepted-risk': 'accepted risk',
  'wont-fix': "won't fix",
};
