/**
 * The sandbox's Template Library: a handful of pre-written utility and authentication templates
 * in the shape `GET /message_template_library` returns, enough to browse by every filter and to
 * create templates from (`library_template_name`). The wording is the sandbox's own; the
 * topics, use cases, industries and parameter types are Meta's vocabulary.
 */

export interface LibraryButton {
  type: 'URL' | 'PHONE_NUMBER' | 'QUICK_REPLY' | 'OTP';
  text: string;
  /** URL buttons: the library's sample URL; the business supplies its own base_url on create. */
  url?: string;
  phone_number?: string;
  otp_type?: 'COPY_CODE' | 'ONE_TAP' | 'ZERO_TAP';
}

export interface LibraryTemplate {
  id: string;
  name: string;
  language: string;
  category: 'UTILITY' | 'AUTHENTICATION';
  topic: string;
  usecase: string;
  industry: string[];
  header?: string;
  body: string;
  body_params?: string[];
  body_param_types?: string[];
  buttons?: LibraryButton[];
}

export const TEMPLATE_LIBRARY: readonly LibraryTemplate[] = [
  {
    id: '5100000000000001',
    name: 'order_shipped_1',
    language: 'en_US',
    category: 'UTILITY',
    topic: 'ORDER_MANAGEMENT',
    usecase: 'SHIPMENT_CONFIRMATION',
    industry: ['E_COMMERCE'],
    header: 'Your order is on its way',
    body: 'Good news, {{1}}! Order {{2}} has shipped and should arrive by {{3}}.',
    body_params: ['Maria', '#48213', 'Friday'],
    body_param_types: ['TEXT', 'TEXT', 'DATE'],
    buttons: [{ type: 'URL', text: 'Track shipment', url: 'https://www.example.com/{{1}}' }],
  },
  {
    id: '5100000000000002',
    name: 'order_shipped_1',
    language: 'es',
    category: 'UTILITY',
    topic: 'ORDER_MANAGEMENT',
    usecase: 'SHIPMENT_CONFIRMATION',
    industry: ['E_COMMERCE'],
    header: 'Tu pedido va en camino',
    body: '¡Buenas noticias, {{1}}! El pedido {{2}} ya salió y debería llegar el {{3}}.',
    body_params: ['María', '#48213', 'viernes'],
    body_param_types: ['TEXT', 'TEXT', 'DATE'],
    buttons: [{ type: 'URL', text: 'Seguir envío', url: 'https://www.example.com/{{1}}' }],
  },
  {
    id: '5100000000000003',
    name: 'delivery_failed_1',
    language: 'en_US',
    category: 'UTILITY',
    topic: 'ORDER_MANAGEMENT',
    usecase: 'DELIVERY_FAILED',
    industry: ['E_COMMERCE'],
    body: 'We could not deliver order {{1}} today. Tap below to choose a new delivery time or to call us.',
    body_params: ['#48213'],
    body_param_types: ['TEXT'],
    buttons: [
      { type: 'QUICK_REPLY', text: 'Reschedule' },
      { type: 'PHONE_NUMBER', text: 'Call support', phone_number: '15550100000' },
    ],
  },
  {
    id: '5100000000000004',
    name: 'payment_reminder_1',
    language: 'en_US',
    category: 'UTILITY',
    topic: 'PAYMENTS',
    usecase: 'PAYMENT_REMINDER',
    industry: ['FINANCIAL_SERVICES', 'E_COMMERCE'],
    body: 'Hi {{1}}, a payment of {{2}} for account {{3}} is due on {{4}}.',
    body_params: ['Sam', '$42.00', '0042-77', 'June 3'],
    body_param_types: ['TEXT', 'AMOUNT', 'TEXT', 'DATE'],
    buttons: [{ type: 'URL', text: 'Pay now', url: 'https://www.example.com/{{1}}' }],
  },
  {
    id: '5100000000000005',
    name: 'payment_reminder_1',
    language: 'pt_BR',
    category: 'UTILITY',
    topic: 'PAYMENTS',
    usecase: 'PAYMENT_REMINDER',
    industry: ['FINANCIAL_SERVICES', 'E_COMMERCE'],
    body: 'Olá {{1}}, um pagamento de {{2}} da conta {{3}} vence em {{4}}.',
    body_params: ['Sam', 'R$ 42,00', '0042-77', '3 de junho'],
    body_param_types: ['TEXT', 'AMOUNT', 'TEXT', 'DATE'],
    buttons: [{ type: 'URL', text: 'Pagar agora', url: 'https://www.example.com/{{1}}' }],
  },
  {
    id: '5100000000000006',
    name: 'payment_received_1',
    language: 'en_US',
    category: 'UTILITY',
    topic: 'PAYMENTS',
    usecase: 'RECEIPT',
    industry: ['FINANCIAL_SERVICES', 'E_COMMERCE'],
    body: 'Thanks, {{1}}. We received your payment of {{2}} on {{3}}.',
    body_params: ['Sam', '$42.00', 'June 2'],
    body_param_types: ['TEXT', 'AMOUNT', 'DATE'],
  },
  {
    id: '5100000000000007',
    name: 'appointment_reminder_1',
    language: 'en_US',
    category: 'UTILITY',
    topic: 'EVENT_REMINDER',
    usecase: 'APPOINTMENT_REMINDER',
    industry: ['HEALTH', 'PROFESSIONAL_SERVICES'],
    body: 'Reminder: your appointment with {{1}} is on {{2}} at {{3}}.',
    body_params: ['Dr. Lee', 'May 14', '10:30 AM'],
    body_param_types: ['TEXT', 'DATE', 'TEXT'],
    buttons: [
      { type: 'QUICK_REPLY', text: 'Confirm' },
      { type: 'QUICK_REPLY', text: 'Reschedule' },
      { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '15550100001' },
    ],
  },
  {
    id: '5100000000000008',
    name: 'account_creation_confirmation_1',
    language: 'en_US',
    category: 'UTILITY',
    topic: 'ACCOUNT_UPDATE',
    usecase: 'ACCOUNT_CREATION_CONFIRMATION',
    industry: ['E_COMMERCE', 'FINANCIAL_SERVICES'],
    header: 'Finish setting up your account',
    body: 'Welcome, {{1}}! Confirm {{2}} to finish setting up your account.',
    body_params: ['Maria', 'your email address'],
    body_param_types: ['TEXT', 'TEXT'],
    buttons: [{ type: 'URL', text: 'Confirm account', url: 'https://www.example.com/' }],
  },
  {
    id: '5100000000000009',
    name: 'verification_code_1',
    language: 'en_US',
    category: 'AUTHENTICATION',
    topic: 'IDENTITY_VERIFICATION',
    usecase: 'VERIFICATION_CODE',
    industry: ['E_COMMERCE', 'FINANCIAL_SERVICES'],
    body: '*{{1}}* is your verification code.',
    body_params: ['482913'],
    body_param_types: ['TEXT'],
    buttons: [{ type: 'OTP', text: 'Copy code', otp_type: 'COPY_CODE' }],
  },
];
