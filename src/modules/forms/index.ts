// The front door of the forms module: other modules import only what is exported here.
export { getForm, listForms } from './forms.service.ts';
