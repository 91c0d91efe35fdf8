/**
 * The styles of every Mantine component the shell does not use (styles/pages.css). The router
 * loads this module with any page but the sign-in page, so /login gets only the shell's styles
 * (docs/front-end.md).
 */
import './styles/pages.css';
