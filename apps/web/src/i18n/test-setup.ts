/** Unit tests render in English, the catalog every other language is checked against. */
import { i18n } from '@lingui/core';
import en from 'virtual:catalog/app-en';
import more from 'virtual:catalog/more-en';
import legal from 'virtual:catalog/legal-en';
import { wantMessages } from './i18n';

i18n.load('en', { ...en, ...more, ...legal });
i18n.activate('en');
// In the app, what shows the `more` messages is loaded with them; tests render it directly, so a
// language they switch to brings them too.
wantMessages('more');
