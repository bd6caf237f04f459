import type { errorCodesEn } from './errorCodes.en';

/** errorCodes.en.ts in Simplified Chinese. */
export const errorCodesZh: { readonly [K in keyof typeof errorCodesEn]: string } = {
  'toolError.unknown_tool': '模型调用了本次运行没有提供的工具。',
  'toolError.invalid_arguments': '调用的参数无效。',
  'toolError.arguments_too_large': '参数超过大小上限，调用没有运行。',
  'toolError.denied': '调用被拒绝（由你或已保存的规则），没有运行。',
  'toolError.not_allowed': '父代理没有允许这个子代理使用此工具。',
  'toolError.screening_refused': '安全筛查拒绝了这一步，调用没有运行。',
  'toolError.network_refused': '应用的安全规则拒绝访问这个地址。',
  'toolError.outside_workspace': '路径在会话工作区之外，已被拒绝。',
  'toolError.protected_path': '应用不会写入这个受保护的名称。',
  'toolError.not_found': '调用所指的对象不存在。',
  'toolError.timed_out': '调用超时。',
  'toolError.cancelled': '运行已停止，调用被取消。',
  'toolError.interrupted': '应用在调用期间停止；其效果未知，没有重新运行。',
  'toolError.answer_not_accepted': '答案未被接受，已告诉模型需要修正什么。',
  'toolError.failed': '{tool} 运行失败。',
};
