// Portuguese texts of the pages reached from a mailed link («você»).
import type { Catalogue } from './en.ts';

export const pt: Catalogue = {
  'common.yourName': 'Seu nome',
  'common.email': 'E-mail',
  'common.password': 'Senha',
  'common.samePasswordTwice': 'Digite a mesma senha duas vezes.',
  'common.signInLink': 'entre',
  'common.backToSignIn': 'Voltar ao login',
  'common.forgotPassword': 'Esqueceu a senha?',

  'password.new': 'Nova senha',
  'password.hint': 'Pelo menos 10 caracteres, e não uma senha comum.',
  'password.again': 'Repita a senha',
  'password.differ': 'As duas senhas são diferentes.',

  'setup.title': 'Configurar o Herald',
  'setup.noToken':
    'Este endereço não tem token de configuração. Abra o link de configuração completo que o Herald exibiu ao ' +
    'iniciar ({example}) ou {signIn}.',
  'setup.intro':
    'Crie a primeira conta. Ela pode abrir todos os projetos como proprietária, criar projetos e convidar sua equipe.',
  'setup.form': 'Criar a primeira conta',
  'setup.creating': 'Criando…',
  'setup.create': 'Criar conta',

  'invite.title': 'Entrar em um projeto',
  'invite.noToken': 'Este endereço não tem token de convite: abra o link completo que você recebeu.',
  'invite.summary.owner': 'Você foi convidado para {project} como {role}.',
  'invite.summary.admin': 'Você foi convidado para {project} como {role}.',
  'invite.summary.editor': 'Você foi convidado para {project} como {role}.',
  'invite.summary.viewer': 'Você foi convidado para {project} como {role}.',
  'role.owner': 'proprietário',
  'role.admin': 'administrador',
  'role.editor': 'editor',
  'role.viewer': 'leitor',
  'invite.validity': 'Para {email} · o link vale até {date}.',
  'invite.hasAccount': '{email} já tem uma conta: entre e depois aceite.',
  'invite.newAccountForm': 'Crie sua conta',
  'invite.newAccountFor': 'Crie sua conta para {email}:',
  'invite.createAndJoin': 'Criar conta e entrar',
  'invite.signedInAs': 'Você entrou como {email}.',
  'invite.otherAddress': 'O convite foi enviado para {invited}: aceitá-lo adiciona você ({you}) a {project}.',
  'invite.signOut': 'Sair',
  'invite.accept': 'Aceitar convite',

  'reset.title': 'Definir uma nova senha',
  'reset.form': 'Redefinição de senha',
  'reset.submit': 'Definir senha',
  'reset.noToken': 'Este endereço não tem token de redefinição: abra o link completo do e-mail.',
  'reset.askNew': 'Pedir um novo link',

  'forgot.title': 'Redefinir sua senha',
  'forgot.sent':
    'Se existir uma conta para {email}, um link para definir uma nova senha está a caminho. Ele vale por uma hora.',
  'forgot.form': 'Pedir um link de redefinição',
  'forgot.intro': 'Digite o e-mail da sua conta: enviaremos para ele um link para definir uma nova senha.',
  'forgot.submit': 'Enviar link',
  'forgot.noMail': 'O e-mail não chegou? Um administrador da instância pode criar um link com {command}.',
};
