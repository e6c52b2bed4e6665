import { Icon } from "../Icon.tsx";
import { fileIconOf } from "../file_icon.ts";
import type { Resource } from "../../lib/types.ts";

/** Props of ShareGallery. */
export interface ShareGalleryProps {
  items: Resource[];
  /** The inline URL of an image item. */
  imageUrl: (item: Resource) => string;
  pageUrl: (item: Resource) => string;
  onOpen: (item: Resource, e: MouseEvent) => void;
}

/** A shared folder as a grid of cards: images as pictures (loaded as they scroll into view), others as icons. */
export function ShareGallery(props: ShareGalleryProps) {
  return (
    <ul class="share-gallery" data-testid="share-gallery">
      {props.items.map((item) => (
        <li key={item.path} data-name={item.name}>
          <a href={props.pageUrl(item)} onClick={(e) => props.onOpen(item, e)}>
            {item.type === "image"
              ? <img src={props.imageUrl(item)} alt="" loading="lazy" decoding="async" />
              : (
                <span class="share-gallery-icon">
                  <Icon node={fileIconOf(item)} size={40} />
                </span>
              )}
            <span class="share-gallery-name">{item.name}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
