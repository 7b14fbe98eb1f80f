/** Unit tests render in English, the catalog every other language is checked against. */
import { i18n } from '@lingui/core';
import en from 'virtual:catalog/app-en';
import legal from 'virtual:catalog/legal-en';

i18n.load('en', { ...en, ...legal });
i18n.activate('en');
