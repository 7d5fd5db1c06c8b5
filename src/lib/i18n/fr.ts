// French texts of hosted pages and email footers (« vous », wording that does not depend on the reader's gender).
import type { Catalogue } from './en.ts';

export const fr: Catalogue = {
  'page.from': 'E-mails de <strong>{sender}</strong>',
  'page.unknownSender': 'cet expéditeur',

  'invalid.title': 'Lien non valide',
  'invalid.heading': 'Ce lien n’est pas valide',
  'invalid.body': 'Il a peut-être été copié de façon incomplète.',

  'busy.title': 'Réessayez',
  'busy.heading': 'Ce lien est occupé',
  'busy.body': 'Veuillez réessayer dans un instant.',

  'unsubscribe.title': 'Se désabonner de {sender}',
  'unsubscribe.heading': 'Se désabonner',
  'unsubscribe.question': 'Ne plus recevoir les e-mails de {sender} à l’adresse <strong>{email}</strong> ?',
  'unsubscribe.questionNoEmail': 'Ne plus recevoir les e-mails de {sender} à cette adresse ?',
  'unsubscribe.button': 'Se désabonner',

  'unsubscribed.title': 'Désabonnement effectué',
  'unsubscribed.heading': 'Votre désabonnement est confirmé',
  'unsubscribed.body': 'Vous ne recevrez plus ces e-mails de {sender}.',
  'unsubscribed.mistake': 'Désabonnement par erreur ?',
  'unsubscribed.resubscribe': 'Se réabonner',

  'resubscribed.title': 'Réabonnement effectué',
  'resubscribed.heading': 'Votre abonnement est rétabli',
  'resubscribed.body': 'Vous recevrez à nouveau les e-mails de {sender}.',

  'preferences.title': 'Préférences e-mail pour {sender}',
  'preferences.heading': 'Préférences e-mail',
  'preferences.for': 'Pour <strong>{email}</strong>.',
  'preferences.unsubscribedAll': 'Vous ne recevez plus aucun e-mail de {sender}.',
  'preferences.choose': 'Choisissez les sujets qui vous intéressent :',
  'preferences.save': 'Enregistrer les préférences',
  'preferences.unsubscribeAll': 'Se désabonner de tout',
  'preferences.saved': 'Vos préférences sont enregistrées.',
  'preferences.unsubscribed': 'Votre désabonnement est confirmé.',
  'preferences.resubscribed': 'Votre abonnement est rétabli.',
  'preferences.pauseIntro': 'Besoin d’une pause ? Suspendez plutôt ces e-mails :',
  'preferences.pause2w': 'Suspendre 2 semaines',
  'preferences.pause1m': 'Suspendre 1 mois',
  'preferences.pause3m': 'Suspendre 3 mois',
  'preferences.pausedUntil': 'Ces e-mails sont suspendus jusqu’au <strong>{date}</strong>.',
  'preferences.resume': 'Reprendre maintenant',
  'preferences.snoozed': 'Ces e-mails sont suspendus.',
  'preferences.resumed': 'Ces e-mails reprennent.',

  'confirm.title': 'Confirmez votre abonnement à {sender}',
  'confirm.heading': 'Confirmez votre abonnement',
  'confirm.question': 'Abonner <strong>{email}</strong> aux e-mails de {sender} ?',
  'confirm.button': 'Confirmer',
  'confirmed.title': 'Abonnement confirmé',
  'confirmed.heading': 'Votre abonnement est confirmé',
  'confirmed.body': '<strong>{email}</strong> recevra les e-mails de {sender}.',
  'expired.title': 'Lien expiré',
  'expired.heading': 'Ce lien a expiré',
  'expired.body':
    'Les liens de confirmation sont valables 7 jours. Inscrivez-vous à nouveau pour en recevoir un nouveau.',

  'view.imagesHidden':
    'Les images distantes ne sont pas affichées : ' +
    'les charger indique aux serveurs de l’expéditeur que vous avez consulté le message.',
  'view.showImages': 'Afficher les images',
  'view.gone.title': 'E-mail indisponible',
  'view.gone.heading': 'Cet e-mail n’est plus disponible',
  'view.gone.body': 'Le lien a expiré, ou le contenu de l’e-mail n’est plus conservé.',

  'sso.back': '<a href="/">Retour à la connexion</a>',
  'sso.again': '<a href="/auth/oidc/start">Se reconnecter avec le SSO</a> ou <a href="/">revenir à la connexion</a>.',
  'sso.noAccount.title': 'Aucun compte pour cette adresse',
  'sso.noAccount.body':
    '<strong>{email}</strong> n’a ni compte Herald ni invitation en attente. Demandez à un administrateur de votre ' +
    'projet d’inviter cette adresse, puis reconnectez-vous avec le SSO.',
  'sso.unverified.title': 'E-mail non vérifié',
  'sso.unverified.heading': 'Votre adresse e-mail n’est pas vérifiée',
  'sso.unverified.body':
    'Votre fournisseur d’identité n’a pas vérifié <strong>{email}</strong> : Herald ne peut donc pas vous connecter ' +
    'avec cette adresse. Vérifiez-la auprès de lui (ou demandez à son administrateur de le faire), puis réessayez.',
  'sso.noEmail.title': 'Aucune adresse e-mail',
  'sso.noEmail.body':
    'Votre fournisseur d’identité n’a pas communiqué à Herald votre adresse e-mail, qui sert à vous connecter. ' +
    'Demandez à son administrateur de transmettre la revendication <code>email</code> à Herald.',
  'sso.attempt.title': 'Connexion expirée',
  'sso.attempt.heading': 'Cette connexion a expiré',
  'sso.attempt.body':
    'Elle a été lancée il y a plus de 10 minutes, dans un autre navigateur, ou a déjà été utilisée (le paramètre ' +
    'state ne correspond pas).',
  'sso.notSignedIn.title': 'Connexion échouée',
  'sso.issuerError.heading': 'Votre fournisseur d’identité ne vous a pas connecté',
  'sso.issuerError.body': 'Il a répondu par une erreur{detail}.',
  'sso.exchange.heading': 'La connexion n’a pas pu aboutir',
  'sso.exchange.body':
    'La réponse de votre fournisseur d’identité n’a pas été acceptée (son code a peut-être déjà été utilisé, ou ' +
    'elle n’a pas passé les vérifications de Herald).',
  'sso.unreachable.title': 'Fournisseur d’identité injoignable',
  'sso.unreachable.heading': 'Votre fournisseur d’identité est injoignable',
  'sso.unreachable.body':
    'Réessayez dans une minute ; si le problème persiste, prévenez la personne qui administre ce Herald.',

  'form.submit': 'S’abonner',
  'form.required': 'Ce champ est obligatoire.',
  'form.invalidEmail': 'Saisissez une adresse e-mail valide.',
  'form.invalidChoice': 'Choisissez l’une des options.',
  'form.choose': 'Choisir…',
  'form.problems': 'Vérifiez les champs signalés ci-dessous.',
  'form.honeypot': 'Laissez ce champ vide',
  'form.pow.failed': 'La vérification que vous êtes une personne a échoué. Veuillez réessayer.',
  'form.pow.noScript': 'Ce formulaire vérifie dans votre navigateur que vous êtes une personne : activez JavaScript.',
  'form.unavailable': 'Ce formulaire ne prend pas d’inscriptions pour le moment. Réessayez plus tard.',
  'form.done.title': 'Merci',
  'form.done.subscribed': 'Merci pour votre inscription.',
  'form.done.confirm': 'Presque fini : confirmez votre inscription depuis l’e-mail reçu dans votre boîte.',
  'form.missing.title': 'Formulaire introuvable',
  'form.missing.body': 'Ce formulaire n’existe pas ou a été supprimé.',

  'footer.unsubscribe': 'Se désabonner',
  'footer.manage': 'Gérer les préférences',
};
