// A second, independent implementation of the service's browser interface (spec 2.2, 4.3,
// 4.4, 6.2), written for the tests of servicepay/hosted: it records every call in
// window.recorded and renders markup of its own (nothing like this project's component), so
// the wrapper is proved to rely on the spec's interface alone. Served as a classic script.
(function () {
  var recorded = (window.recorded = window.recorded || []);
  var instances = (window.recordingInstances = window.recordingInstances || []);
  function RecordingService(options) {
    if (!(this instanceof RecordingService)) throw new TypeError('use new');
    this.n = instances.push(this);
    this.options = options;
    this.payment = null;
    this.enabled = !options.disablePayButton;
    recorded.push([this.n, 'new', describeOptions(options)]);
  }
  function describeOptions(options) {
    var copy = {};
    Object.keys(options).forEach(function (key) {
      copy[key] = typeof options[key] == 'function' ? 'function' : options[key];
    });
    return copy;
  }
  RecordingService.prototype.emit = function (event) {
    if (this.options.eventConsumer) this.options.eventConsumer(event);
  };
  RecordingService.prototype.fail = function (error) {
    if (this.options.errorConsumer) this.options.errorConsumer(error);
  };
  RecordingService.prototype.draw = function () {
    if (!this.element) return;
    var open = this.openInstitutionSelection.bind(this);
    this.element.innerHTML = '';
    var box = document.createElement('section');
    box.setAttribute('data-recording', String(this.n));
    var heading = document.createElement('h3');
    heading.textContent = this.options.title || 'Pay with your banking app';
    var pay = document.createElement('button');
    pay.type = 'button';
    pay.textContent =
      (this.options.payLabel || 'Pay £') + (this.payment ? this.payment.amount.toFixed(2) : '');
    pay.disabled = !this.enabled;
    pay.onclick = open;
    box.append(heading, pay);
    this.element.append(box);
  };
  RecordingService.prototype.createPayment = function (args) {
    if (!(this instanceof RecordingService)) throw new TypeError('detached createPayment');
    recorded.push([this.n, 'createPayment', args]);
    this.payment = args;
    this.draw();
  };
  RecordingService.prototype.injectComponent = function (id) {
    if (!(this instanceof RecordingService)) throw new TypeError('detached injectComponent');
    recorded.push([this.n, 'injectComponent', id, document.getElementById(id).childNodes.length]);
    this.element = document.getElementById(id);
    this.draw();
    this.emit('mounted');
  };
  RecordingService.prototype.toggleButton = function (enabled) {
    if (!(this instanceof RecordingService)) throw new TypeError('detached toggleButton');
    recorded.push([this.n, 'toggleButton', enabled]);
    this.enabled = enabled;
    this.draw();
    this.emit(enabled ? 'pay_button_enabled' : 'pay_button_disabled');
  };
  RecordingService.prototype.openInstitutionSelection = function () {
    if (!(this instanceof RecordingService)) throw new TypeError('detached open');
    recorded.push([this.n, 'openInstitutionSelection']);
    this.emit('bank_selection_opened');
  };
  RecordingService.prototype.payWithInstitution = function (institutionId) {
    if (!(this instanceof RecordingService)) throw new TypeError('detached pay');
    recorded.push([this.n, 'payWithInstitution', institutionId, this.payment]);
    this.emit('payment_initiated');
    this.emit('institution_selected');
    this.emit('awaiting_authorisation');
  };
  // The test server names another global here for a white-label build (globalName).
  window[/* global */ 'Service'] = RecordingService;
})();
