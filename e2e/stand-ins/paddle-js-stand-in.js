/*
 * Stand-in for Paddle.js v2 (https://cdn.paddle.com/paddle/v2/paddle.js), served to the browser
 * in tests instead of Paddle's script. It exposes the same globals `@paddle/paddle-js` looks for
 * (`window.PaddleBillingV1`, `window.Paddle`) with the methods it calls (`Environment.set`,
 * `Initialize`, `Update`, `Checkout.open`), records every call on `window.__paddleStandIn`, and
 * lets a test fire checkout events through the registered `eventCallback`. It never talks to
 * the network and charges nothing.
 */
(function () {
  'use strict';

  /** A JSON copy of call options, with functions replaced by a marker. */
  function record(value) {
    return JSON.parse(
      JSON.stringify(value, function (_key, v) {
        return typeof v === 'function' ? '[function]' : v;
      }),
    );
  }

  var state = {
    environmentCalls: [],
    initializeCalls: [],
    updateCalls: [],
    openCalls: [],
    events: [],
    eventCallback: null,
    /** Set true to make Checkout.open throw (as Paddle.js does on bad input). */
    failOpen: false,
  };

  function emit(event) {
    state.events.push(record(event));
    if (typeof state.eventCallback === 'function') state.eventCallback(event);
  }

  /** Data shaped like Paddle.js checkout event data (CheckoutEventsData) for the last opened checkout. */
  function checkoutData(status, transactionId) {
    var open = state.openCalls[state.openCalls.length - 1] || { items: [], customData: null };
    var items = (open.items || []).map(function (item) {
      return {
        price_id: item.priceId,
        price_name: 'Plan',
        quantity: item.quantity || 1,
        product: { id: 'pro_01standinproduct000000000', name: 'AI Dress Up' },
        totals: { subtotal: 999, discount: 0, tax: 0, total: 999 },
      };
    });
    return {
      id: 'che_01standincheckout00000000',
      transaction_id: transactionId || 'txn_01standintransaction0000',
      status: status,
      custom_data: open.customData || null,
      currency_code: 'USD',
      customer: { id: 'ctm_01standincustomer000000', email: 'shopper@example.com', address: null, business: null },
      items: items,
      payment: {
        method_details: { type: 'card', card: { type: 'visa', last4: '4242', expiry_month: 1, expiry_year: 2030 } },
      },
      settings: {
        display_mode: (open.settings && open.settings.displayMode) || 'overlay',
        theme: (open.settings && open.settings.theme) || 'light',
      },
      totals: { subtotal: 999, discount: 0, tax: 0, total: 999 },
      upsell: null,
    };
  }

  var Paddle = {
    Initialized: false,
    Version: 'v1',
    Status: { libraryVersion: 'stand-in' },
    Environment: {
      set: function (environment) {
        state.environmentCalls.push(environment);
      },
    },
    Initialize: function (options) {
      state.initializeCalls.push(record(options));
      state.eventCallback = options && options.eventCallback;
      Paddle.Initialized = true;
    },
    Update: function (options) {
      state.updateCalls.push(record(options));
      if (options && typeof options.eventCallback === 'function') state.eventCallback = options.eventCallback;
    },
    Setup: function (options) {
      Paddle.Initialize(options);
    },
    Checkout: {
      open: function (options) {
        if (state.failOpen) throw new Error('stand-in: Checkout.open refused');
        state.openCalls.push(record(options));
        setTimeout(function () {
          emit({ name: 'checkout.loaded', data: checkoutData('draft') });
        }, 0);
      },
      updateCheckout: function () {},
      updateItems: function () {},
      close: function () {
        emit({ name: 'checkout.closed', data: checkoutData('draft') });
      },
    },
    Spinner: { show: function () {}, hide: function () {} },
  };

  window.__paddleStandIn = {
    state: state,
    /** Fires `checkout.completed` for the last opened checkout, as Paddle.js does after payment. */
    complete: function (transactionId) {
      emit({ name: 'checkout.completed', data: checkoutData('completed', transactionId) });
    },
    emit: emit,
  };
  window.PaddleBillingV1 = Paddle;
  window.Paddle = Paddle;
})();
