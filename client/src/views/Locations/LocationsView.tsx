// Placeholder while the Ubicaciones view is being built (issue 18).
import { ViewPlaceholder } from '../../components/ViewPlaceholder';

export function LocationsView() {
  return <ViewPlaceholder view="locations" />;
}
