// `@calendar-gateway/elements`: <calendar-gateway-view>, defined on import (once, if another copy has not).
import { CalendarGatewayView } from './element.ts';

export type { Filters } from './data.ts';
export { CalendarGatewayView };

if (!customElements.get('calendar-gateway-view'))
  customElements.define('calendar-gateway-view', CalendarGatewayView);

declare global {
  interface HTMLElementTagNameMap {
    'calendar-gateway-view': CalendarGatewayView;
  }
}
