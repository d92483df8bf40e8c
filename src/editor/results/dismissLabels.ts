// How a local dismissal's reason reads, wherever a dismissed finding is shown.
import type { DismissReason } from './resultsStore';

export const DISMISS_LABELS: Record<DismissReason, string> = {
  'false-positive': 'false positive',
  'accepted-risk': 'accepted risk',
  'wont-fix': "won't fix",
};
