// The local identity provider's sign-out page (docs/PEOPLE.md "Locally"): sent only when the console asked
// with its own ID token, so the confirmation needs no click; without JavaScript the page's button does it.
document.addEventListener('DOMContentLoaded', function () {
  var form = document.getElementById('op.logoutForm');
  if (form && form.getAttribute('data-confirmed') === 'yes') form.submit();
});
