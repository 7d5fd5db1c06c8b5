// Portuguese texts of hosted pages and email footers («você», words read in Brazil and Portugal alike).
import type { Catalogue } from './en.ts';

export const pt: Catalogue = {
  'page.from': 'E-mails de <strong>{sender}</strong>',
  'page.unknownSender': 'este remetente',

  'invalid.title': 'Link inválido',
  'invalid.heading': 'Este link não é válido',
  'invalid.body': 'Talvez ele tenha sido copiado de forma incompleta.',

  'busy.title': 'Tente novamente',
  'busy.heading': 'Este link está ocupado',
  'busy.body': 'Tente novamente em instantes.',

  'unsubscribe.title': 'Cancelar inscrição de {sender}',
  'unsubscribe.heading': 'Cancelar inscrição',
  'unsubscribe.question': 'Deixar de receber e-mails de {sender} em <strong>{email}</strong>?',
  'unsubscribe.questionNoEmail': 'Deixar de receber e-mails de {sender} neste endereço?',
  'unsubscribe.button': 'Cancelar inscrição',

  'unsubscribed.title': 'Inscrição cancelada',
  'unsubscribed.heading': 'Sua inscrição foi cancelada',
  'unsubscribed.body': 'Você não receberá mais estes e-mails de {sender}.',
  'unsubscribed.mistake': 'Cancelou por engano?',
  'unsubscribed.resubscribe': 'Inscrever-me novamente',

  'resubscribed.title': 'Inscrição reativada',
  'resubscribed.heading': 'Sua inscrição foi reativada',
  'resubscribed.body': 'Você voltará a receber e-mails de {sender}.',

  'preferences.title': 'Preferências de e-mail de {sender}',
  'preferences.heading': 'Preferências de e-mail',
  'preferences.for': 'Para <strong>{email}</strong>.',
  'preferences.unsubscribedAll': 'Sua inscrição em todos os e-mails de {sender} está cancelada.',
  'preferences.choose': 'Escolha sobre o que você quer receber novidades:',
  'preferences.save': 'Salvar preferências',
  'preferences.unsubscribeAll': 'Cancelar inscrição em tudo',
  'preferences.saved': 'Suas preferências foram salvas.',
  'preferences.unsubscribed': 'Sua inscrição foi cancelada.',
  'preferences.resubscribed': 'Sua inscrição foi reativada.',
  'preferences.pauseIntro': 'Precisa de uma pausa? Pause estes e-mails em vez disso:',
  'preferences.pause2w': 'Pausar por 2 semanas',
  'preferences.pause1m': 'Pausar por 1 mês',
  'preferences.pause3m': 'Pausar por 3 meses',
  'preferences.pausedUntil': 'Estes e-mails estão pausados até <strong>{date}</strong>.',
  'preferences.resume': 'Retomar agora',
  'preferences.snoozed': 'Estes e-mails estão pausados.',
  'preferences.resumed': 'Estes e-mails foram retomados.',

  'confirm.title': 'Confirme sua inscrição em {sender}',
  'confirm.heading': 'Confirme sua inscrição',
  'confirm.question': 'Inscrever <strong>{email}</strong> nos e-mails de {sender}?',
  'confirm.button': 'Confirmar',
  'confirmed.title': 'Inscrição confirmada',
  'confirmed.heading': 'Sua inscrição está confirmada',
  'confirmed.body': '<strong>{email}</strong> receberá e-mails de {sender}.',
  'expired.title': 'Link expirado',
  'expired.heading': 'Este link expirou',
  'expired.body': 'Os links de confirmação valem por 7 dias. Inscreva-se novamente para receber um novo.',

  'view.imagesHidden':
    'As imagens remotas não são mostradas: carregá-las informa os servidores do remetente de que viu a mensagem.',
  'view.showImages': 'Mostrar imagens',
  'view.gone.title': 'Email indisponível',
  'view.gone.heading': 'Este email já não está disponível',
  'view.gone.body': 'O link expirou, ou o conteúdo do email já não é guardado.',

  'sso.back': '<a href="/">Voltar ao login</a>',
  'sso.again': '<a href="/auth/oidc/start">Entrar com SSO novamente</a> ou <a href="/">voltar ao login</a>.',
  'sso.noAccount.title': 'Nenhuma conta para este endereço',
  'sso.noAccount.body':
    '<strong>{email}</strong> não tem conta no Herald nem convite em aberto. Peça a um administrador do seu projeto ' +
    'para convidar este endereço e depois entre com SSO novamente.',
  'sso.unverified.title': 'E-mail não verificado',
  'sso.unverified.heading': 'Seu e-mail não está verificado',
  'sso.unverified.body':
    'Seu provedor de identidade não verificou <strong>{email}</strong>, por isso o Herald não pode fazer seu login ' +
    'com ele. Verifique o endereço lá (ou peça ao administrador dele) e tente novamente.',
  'sso.noEmail.title': 'Nenhum endereço de e-mail',
  'sso.noEmail.body':
    'Seu provedor de identidade não informou ao Herald seu endereço de e-mail, que o Herald usa para fazer seu ' +
    'login. Peça ao administrador dele para liberar a claim <code>email</code> para o Herald.',
  'sso.attempt.title': 'Login expirado',
  'sso.attempt.heading': 'Este login expirou',
  'sso.attempt.body':
    'Ele foi iniciado há mais de 10 minutos, em outro navegador, ou já foi usado (o state não confere).',
  'sso.notSignedIn.title': 'Login não realizado',
  'sso.issuerError.heading': 'Seu provedor de identidade não fez seu login',
  'sso.issuerError.body': 'Ele respondeu com um erro{detail}.',
  'sso.exchange.heading': 'Não foi possível concluir o login',
  'sso.exchange.body':
    'A resposta do seu provedor de identidade não foi aceita (o código dela talvez já tenha sido usado, ou ela não ' +
    'passou nas verificações do Herald).',
  'sso.unreachable.title': 'Provedor de identidade inacessível',
  'sso.unreachable.heading': 'Não foi possível contatar seu provedor de identidade',
  'sso.unreachable.body':
    'Tente novamente em um minuto; se isso continuar acontecendo, avise quem administra este Herald.',

  'form.submit': 'Inscrever-se',
  'form.required': 'Este campo é obrigatório.',
  'form.invalidEmail': 'Informe um endereço de e-mail válido.',
  'form.invalidChoice': 'Escolha uma das opções.',
  'form.choose': 'Escolher…',
  'form.problems': 'Verifique os campos marcados abaixo.',
  'form.honeypot': 'Deixe este campo em branco',
  'form.pow.failed': 'A verificação de que você é uma pessoa falhou. Tente novamente.',
  'form.pow.noScript': 'Este formulário verifica no seu navegador que você é uma pessoa: ative o JavaScript.',
  'form.unavailable': 'Este formulário não aceita inscrições no momento. Tente novamente mais tarde.',
  'form.done.title': 'Obrigado',
  'form.done.subscribed': 'Obrigado pela sua inscrição.',
  'form.done.confirm': 'Quase lá: confirme sua inscrição pelo e-mail enviado para sua caixa de entrada.',
  'form.missing.title': 'Formulário não encontrado',
  'form.missing.body': 'Este formulário não existe ou foi removido.',

  'footer.unsubscribe': 'Cancelar inscrição',
  'footer.manage': 'Gerenciar preferências',
};
