/**
 * The English message of each form field rule, offered by the element as strings a page may translate.
 * Placeholders such as `{label}`, `{min}` and `{maxLength}` are filled in.
 */
export const FORM_FIELD_MESSAGES = {
  fieldRequired: 'Please fill in {label}.',
  fieldText: 'Enter text.',
  fieldEmail: 'Enter an e-mail address like name@example.com.',
  fieldTel: 'Enter a phone number: digits, spaces and + ( ) - . / only.',
  fieldNumber: 'Enter a number.',
  fieldMin: 'Must be at least {min}.',
  fieldMax: 'Must be at most {max}.',
  fieldStep: 'Must be a multiple of {step}.',
  fieldStepFrom: 'Must be {base} plus a multiple of {step}.',
  fieldOption: 'Choose one of the options.',
  fieldCheckbox: 'Must be ticked or not (true or false).',
  fieldTooShort: 'Use at least {minLength} characters.',
  fieldTooLong: 'Use at most {maxLength} characters.',
};

/** The rules' message keys and texts. */
export type FormFieldMessages = typeof FORM_FIELD_MESSAGES;
