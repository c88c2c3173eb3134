// Placeholder while the Patio view is being built (issue 18).
import { ViewPlaceholder } from '../../components/ViewPlaceholder';

export function YardView() {
  return <ViewPlaceholder view="yard" />;
}
