/**
 * How the Pay component looks (spec 2.2): the display options that the root `<ServicePay>`,
 * `window.Service` and servicepay/hosted's `<ServicePay>` (which hands them to the service's
 * own component) all take. One home, so their defaults and meanings cannot drift apart.
 */
export interface ServiceDisplayProps {
  /** Title displayed by the component. @default 'Pay with your banking app' */
  title?: string;
  /** Label displayed below the title. @default 'Pay securely with your banking app' */
  label?: string;
  /** Label of the Pay button, followed by the prepared amount. @default 'Pay £' */
  payLabel?: string;
  /**
   * No service stylesheet and no `service-*` class names: the page styles the markup.
   * (The key is spelled exactly so in the spec.)
   * @default false
   */
  disableVolumeStyling?: boolean;
  /**
   * No utility-class stylesheet: the page supplies the (Tailwind) classes.
   * @deprecated since component version 0.5 (spec 9); style through `disableVolumeStyling` and CSS custom properties.
   * @default false
   */
  disableTailwindStyling?: boolean;
  /** Extra class names for the component's outer element. */
  className?: string;
}
