/**
 * What main names beside its English words, said in the window's language: a failed tool
 * call's case (`toolError.*`, ToolErrorCode), an IPC error's reason (`envelope.*`,
 * ErrorReason) and a notice's code (`appNotice.*`, AppNoticeCode, filled from its params).
 * Spread into `en` (which defines the keys for every locale).
 */
export const errorCodesEn = {
  'toolError.unknown_tool': 'The model called a tool this run does not offer.',
  'toolError.invalid_arguments': 'The call’s arguments were not valid.',
  'toolError.arguments_too_large': 'The arguments were over the size limit, so the call did not run.',
  'toolError.denied': 'The call was refused (by you or a stored rule), so it did not run.',
  'toolError.not_allowed': 'The parent agent did not allow this tool for this child agent.',
  'toolError.screening_refused': 'The safety screening refused this step, so it did not run.',
  'toolError.network_refused': 'The app’s safety rules refused this address.',
  'toolError.outside_workspace': 'The path is outside the session workspace, so it was refused.',
  'toolError.protected_path': 'The app does not write to this protected name.',
  'toolError.not_found': 'What the call names does not exist.',
  'toolError.timed_out': 'The call ran out of time.',
  'toolError.cancelled': 'The call was cancelled when the run stopped.',
  'toolError.interrupted': 'The app stopped during this call; its effect is unknown and it was not run again.',
  'toolError.answer_not_accepted': 'The answer was not accepted; the model was told what to fix.',
  'toolError.failed': '{tool} failed.',
  // English windows show main's own message; other languages head it with the case.
  'envelope.invalid_request': '{message}',
  'envelope.unknown_route': '{message}',
  'envelope.forbidden_sender': '{message}',
  'envelope.internal': '{message}',
  'envelope.invalid_input': '{message}',
  'envelope.not_found': '{message}',
  'envelope.conflict': '{message}',
  'envelope.refused': '{message}',
  'envelope.unavailable': '{message}',
  'envelope.not_configured': '{message}',
  'envelope.shutting_down': 'The app is shutting down; start it again to continue.',
  'envelope.run_not_finished': 'That run has not finished; stop it first, then retry or edit it.',
  'appNotice.package_open_failed': '{file} could not be opened: {message}. Check it from a terminal: openai4s verify "{path}"',
  'appNotice.report_open_failed': 'The package’s report did not open ({message}). It is at {path}',
} as const;
