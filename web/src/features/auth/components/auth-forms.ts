// The /auth screen's forms, each a module of its own (with the verification widget and the schemas they
// check). The route asks for them once the screen's own module is there, and the screen shows them when
// they are there; one definition of where they are, for both.
export const authForms = {
  login: () => import('./login-form'),
  register: () => import('./register-form'),
};
