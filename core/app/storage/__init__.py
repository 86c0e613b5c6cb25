"""The application database: tables, opening and migrating it, and files written whole or not at all."""
