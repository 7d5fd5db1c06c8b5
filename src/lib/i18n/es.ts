// Spanish texts of hosted pages and email footers («tú»).
import type { Catalogue } from './en.ts';

export const es: Catalogue = {
  'page.from': 'Correos de <strong>{sender}</strong>',
  'page.unknownSender': 'este remitente',

  'invalid.title': 'Enlace no válido',
  'invalid.heading': 'Este enlace no es válido',
  'invalid.body': 'Puede que se haya copiado de forma incompleta.',

  'busy.title': 'Inténtalo de nuevo',
  'busy.heading': 'Este enlace está ocupado',
  'busy.body': 'Vuelve a intentarlo en un momento.',

  'unsubscribe.title': 'Cancelar la suscripción a {sender}',
  'unsubscribe.heading': 'Cancelar suscripción',
  'unsubscribe.question': '¿Dejar de recibir correos de {sender} en <strong>{email}</strong>?',
  'unsubscribe.questionNoEmail': '¿Dejar de recibir correos de {sender} en esta dirección?',
  'unsubscribe.button': 'Cancelar suscripción',

  'unsubscribed.title': 'Suscripción cancelada',
  'unsubscribed.heading': 'Has cancelado tu suscripción',
  'unsubscribed.body': 'Ya no recibirás estos correos de {sender}.',
  'unsubscribed.mistake': '¿La cancelaste por error?',
  'unsubscribed.resubscribe': 'Volver a suscribirme',

  'resubscribed.title': 'Suscripción reactivada',
  'resubscribed.heading': 'Tu suscripción vuelve a estar activa',
  'resubscribed.body': 'Volverás a recibir correos de {sender}.',

  'preferences.title': 'Preferencias de correo de {sender}',
  'preferences.heading': 'Preferencias de correo',
  'preferences.for': 'Para <strong>{email}</strong>.',
  'preferences.unsubscribedAll': 'Has cancelado la suscripción a todos los correos de {sender}.',
  'preferences.choose': 'Elige sobre qué quieres recibir noticias:',
  'preferences.save': 'Guardar preferencias',
  'preferences.unsubscribeAll': 'Cancelar la suscripción a todo',
  'preferences.saved': 'Tus preferencias se han guardado.',
  'preferences.unsubscribed': 'Has cancelado tu suscripción.',
  'preferences.resubscribed': 'Tu suscripción vuelve a estar activa.',
  'preferences.pauseIntro': '¿Necesita un descanso? Pause estos correos en su lugar:',
  'preferences.pause2w': 'Pausar 2 semanas',
  'preferences.pause1m': 'Pausar 1 mes',
  'preferences.pause3m': 'Pausar 3 meses',
  'preferences.pausedUntil': 'Estos correos están en pausa hasta el <strong>{date}</strong>.',
  'preferences.resume': 'Reanudar ahora',
  'preferences.snoozed': 'Estos correos están en pausa.',
  'preferences.resumed': 'Estos correos se reanudan.',

  'confirm.title': 'Confirma tu suscripción a {sender}',
  'confirm.heading': 'Confirma tu suscripción',
  'confirm.question': '¿Suscribir <strong>{email}</strong> a los correos de {sender}?',
  'confirm.button': 'Confirmar',
  'confirmed.title': 'Suscripción confirmada',
  'confirmed.heading': 'Tu suscripción está confirmada',
  'confirmed.body': '<strong>{email}</strong> recibirá correos de {sender}.',
  'expired.title': 'Enlace caducado',
  'expired.heading': 'Este enlace ha caducado',
  'expired.body':
    'Los enlaces de confirmación son válidos durante 7 días. Vuelve a suscribirte para recibir uno nuevo.',

  'view.imagesHidden':
    'Las imágenes remotas no se muestran: cargarlas indica a los servidores del remitente que ha visto el mensaje.',
  'view.showImages': 'Mostrar imágenes',
  'view.gone.title': 'Correo no disponible',
  'view.gone.heading': 'Este correo ya no está disponible',
  'view.gone.body': 'El enlace ha caducado o el contenido del correo ya no se conserva.',

  'sso.back': '<a href="/">Volver al inicio de sesión</a>',
  'sso.again':
    '<a href="/auth/oidc/start">Iniciar sesión con SSO de nuevo</a> o <a href="/">volver al inicio de sesión</a>.',
  'sso.noAccount.title': 'No hay ninguna cuenta para esta dirección',
  'sso.noAccount.body':
    '<strong>{email}</strong> no tiene cuenta de Herald ni ninguna invitación pendiente. Pide a un administrador de ' +
    'tu proyecto que invite a esta dirección y vuelve a iniciar sesión con SSO.',
  'sso.unverified.title': 'Correo no verificado',
  'sso.unverified.heading': 'Tu correo no está verificado',
  'sso.unverified.body':
    'Tu proveedor de identidad no ha verificado <strong>{email}</strong>, así que Herald no puede iniciar tu ' +
    'sesión con esa dirección. Verifícala allí (o pide a su administrador que lo haga) y vuelve a intentarlo.',
  'sso.noEmail.title': 'Sin dirección de correo',
  'sso.noEmail.body':
    'Tu proveedor de identidad no ha comunicado a Herald tu dirección de correo, con la que Herald inicia tu ' +
    'sesión. Pide a su administrador que comparta el claim <code>email</code> con Herald.',
  'sso.attempt.title': 'Inicio de sesión caducado',
  'sso.attempt.heading': 'Este inicio de sesión ha caducado',
  'sso.attempt.body':
    'Se inició hace más de 10 minutos, en otro navegador, o ya se ha usado (el parámetro state no coincide).',
  'sso.notSignedIn.title': 'Sesión no iniciada',
  'sso.issuerError.heading': 'Tu proveedor de identidad no ha iniciado tu sesión',
  'sso.issuerError.body': 'Respondió con un error{detail}.',
  'sso.exchange.heading': 'No se pudo completar el inicio de sesión',
  'sso.exchange.body':
    'No se aceptó la respuesta de tu proveedor de identidad (puede que su código ya se hubiera usado o que no ' +
    'superara las comprobaciones de Herald).',
  'sso.unreachable.title': 'Proveedor de identidad inaccesible',
  'sso.unreachable.heading': 'No se pudo contactar con tu proveedor de identidad',
  'sso.unreachable.body':
    'Vuelve a intentarlo en un minuto; si sigue ocurriendo, avisa a quien administre este Herald.',

  'form.submit': 'Suscribirse',
  'form.required': 'Este campo es obligatorio.',
  'form.invalidEmail': 'Introduce una dirección de correo válida.',
  'form.invalidChoice': 'Elige una de las opciones.',
  'form.choose': 'Elegir…',
  'form.problems': 'Revisa los campos marcados abajo.',
  'form.honeypot': 'Deja este campo vacío',
  'form.pow.failed': 'La comprobación de que eres una persona ha fallado. Inténtalo de nuevo.',
  'form.pow.noScript': 'Este formulario comprueba en tu navegador que eres una persona: activa JavaScript.',
  'form.unavailable': 'Este formulario no admite suscripciones ahora mismo. Inténtalo más tarde.',
  'form.done.title': 'Gracias',
  'form.done.subscribed': 'Gracias por suscribirte.',
  'form.done.confirm': 'Casi listo: confirma tu suscripción desde el correo que te hemos enviado.',
  'form.missing.title': 'Formulario no encontrado',
  'form.missing.body': 'Este formulario no existe o se ha eliminado.',

  'footer.unsubscribe': 'Cancelar suscripción',
  'footer.manage': 'Gestionar preferencias',
};
