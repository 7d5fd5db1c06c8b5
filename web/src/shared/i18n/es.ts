// Spanish texts of the pages reached from a mailed link («tú»).
import type { Catalogue } from './en.ts';

export const es: Catalogue = {
  'common.yourName': 'Tu nombre',
  'common.email': 'Correo electrónico',
  'common.password': 'Contraseña',
  'common.samePasswordTwice': 'Escribe la misma contraseña dos veces.',
  'common.signInLink': 'inicia sesión',
  'common.backToSignIn': 'Volver al inicio de sesión',
  'common.forgotPassword': '¿Has olvidado la contraseña?',

  'password.new': 'Nueva contraseña',
  'password.hint': 'Al menos 10 caracteres, y que no sea una contraseña común.',
  'password.again': 'Repite la contraseña',
  'password.differ': 'Las dos contraseñas no coinciden.',

  'setup.title': 'Configurar Herald',
  'setup.noToken':
    'Esta dirección no tiene token de configuración. Abre el enlace de configuración completo que Herald mostró al ' +
    'arrancar ({example}) o {signIn}.',
  'setup.intro':
    'Crea la primera cuenta. Puede abrir cualquier proyecto como propietaria, crear proyectos e invitar a tu equipo.',
  'setup.form': 'Crear la primera cuenta',
  'setup.creating': 'Creando…',
  'setup.create': 'Crear cuenta',

  'invite.title': 'Unirse a un proyecto',
  'invite.noToken': 'Esta dirección no tiene token de invitación: abre el enlace completo que te enviaron.',
  'invite.summary.owner': 'Te han invitado a {project} como {role}.',
  'invite.summary.admin': 'Te han invitado a {project} como {role}.',
  'invite.summary.editor': 'Te han invitado a {project} como {role}.',
  'invite.summary.viewer': 'Te han invitado a {project} como {role}.',
  'role.owner': 'propietario',
  'role.admin': 'administrador',
  'role.editor': 'editor',
  'role.viewer': 'lector',
  'invite.validity': 'Para {email} · el enlace es válido hasta el {date}.',
  'invite.hasAccount': '{email} ya tiene una cuenta: inicia sesión y después acepta.',
  'invite.newAccountForm': 'Crea tu cuenta',
  'invite.newAccountFor': 'Crea tu cuenta para {email}:',
  'invite.createAndJoin': 'Crear cuenta y unirme',
  'invite.signedInAs': 'Has iniciado sesión como {email}.',
  'invite.otherAddress': 'La invitación se envió a {invited}: si la aceptas, te añade a ti ({you}) a {project}.',
  'invite.signOut': 'Cerrar sesión',
  'invite.accept': 'Aceptar invitación',

  'reset.title': 'Establecer una nueva contraseña',
  'reset.form': 'Restablecer contraseña',
  'reset.submit': 'Establecer contraseña',
  'reset.noToken': 'Esta dirección no tiene token de restablecimiento: abre el enlace completo del correo.',
  'reset.askNew': 'Pedir un enlace nuevo',

  'forgot.title': 'Restablecer la contraseña',
  'forgot.sent':
    'Si existe una cuenta para {email}, hay en camino un enlace para establecer una nueva contraseña. Es válido ' +
    'durante una hora.',
  'forgot.form': 'Pedir un enlace de restablecimiento',
  'forgot.intro':
    'Escribe el correo electrónico de tu cuenta: te enviaremos allí un enlace para establecer una nueva contraseña.',
  'forgot.submit': 'Enviar enlace',
  'forgot.noMail': '¿No llega el correo? Un administrador de la instancia puede crear un enlace con {command}.',
};
