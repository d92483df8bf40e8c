// How a local dismissal's reason reads, wherever a dismissed finding is shown (the tree,
// the hover, the details page, the dismiss question).
import type { DismissReason } from './types';
import { l10n } from '../text/l10n';

export const DISMISS_LABELS: Record<DismissReason, string> = {
  get 'false-positive'() { return l10n.t('false positive'); },
  get 'accepted-risk'() { return l10n.t('accepted risk'); },
  get 'wont-fix'() { return l10n.t('won\'t fix'); },
};
