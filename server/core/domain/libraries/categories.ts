/** Our asset categories for library search; each adapter maps them to its own (or cannot). */
export const CATEGORIES = [
  { id: 'furniture', label: 'Furniture' },
  { id: 'architecture', label: 'Architecture' },
  { id: 'vehicles', label: 'Vehicles' },
  { id: 'nature', label: 'Nature' },
  { id: 'animals', label: 'Animals' },
  { id: 'people', label: 'People' },
  { id: 'electronics', label: 'Electronics' },
  { id: 'food', label: 'Food' },
  { id: 'fashion', label: 'Fashion' },
  { id: 'art', label: 'Art' },
  { id: 'history', label: 'History' },
  { id: 'props', label: 'Props' },
] as const;

export type CategoryId = (typeof CATEGORIES)[number]['id'];
const CATEGORY_IDS = CATEGORIES.map((c) => c.id) as CategoryId[];
export const isCategory = (value: string): value is CategoryId => (CATEGORY_IDS as string[]).includes(value);
